import { ApiFailure, createGame, login, myGames, robotOpponents, signedIn, signOut, type GameSummary } from './api.js';
import { h, replaceContent } from './dom.js';
import { GameScreen } from './game-view.js';
import { coalesced, followMine, type Following } from './live.js';
import { updatePushToggle } from './push.js';

/**
 * The play page (issue 20), served at /play. Plain TypeScript and the DOM, bundled by esbuild: the
 * page is three screens (sign in, my games, a game), so a framework would add more code to ship,
 * audit and upgrade than the page itself has, and nothing here needs one (see docs/pictures.md).
 * The screen follows the address: `#games`, `#game=<id>`.
 */

const root = document.getElementById('app')!;
let screen: GameScreen | null = null;
let listTimer: number | undefined;
let listLive: Following | null = null;

const message = (e: unknown): string => (e instanceof ApiFailure ? e.message : 'Something went wrong; try again.');

const signInView = (): void => {
  const handle = h('input', { id: 'handle', name: 'handle', autocomplete: 'username', required: true });
  const password = h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const alert = h('p', { role: 'alert', id: 'alert', class: 'alert empty' });
  const submit = async (register: boolean) => {
    try {
      await login(handle.value.trim(), password.value, register);
      location.hash = '#games';
      route();
    } catch (e) {
      alert.textContent = message(e);
      alert.className = 'alert';
    }
  };
  replaceContent(root, [
    h('h1', {}, 'Arbiter'),
    h(
      'form',
      { class: 'sign-in', onsubmit: (e: Event) => (e.preventDefault(), void submit(false)) },
      h('label', { for: 'handle' }, 'Handle'),
      handle,
      h('label', { for: 'password' }, 'Password'),
      password,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'submit', id: 'sign-in' }, 'Sign in'),
        h('button', { type: 'button', id: 'register', onclick: () => void submit(true) }, 'Create this player'),
      ),
    ),
    alert,
  ]);
  handle.focus();
};

const gameLine = (g: GameSummary): HTMLElement => {
  const me = g.seats.find((s) => s.isMe);
  const them = g.seats.find((s) => !s.isMe);
  const state =
    g.status === 'ended'
      ? 'finished'
      : g.status === 'open'
        ? 'waiting for a player'
        : g.isMyTurn
          ? 'your turn'
          : `${them?.player?.displayName ?? 'opponent'}’s turn`;
  return h(
    'li',
    { class: g.isMyTurn ? 'my-turn' : '' },
    h('a', { href: `#game=${g.id}`, 'data-game': g.id }, `vs ${them?.player?.displayName ?? 'open seat'}`),
    ` — ${me?.score ?? 0} : ${them?.score ?? 0} — `,
    h('strong', {}, state),
  );
};

const listView = async (): Promise<void> => {
  const alert = h('p', { role: 'alert', id: 'alert', class: 'alert empty' });
  const opponent = h('input', { id: 'opponent', required: true, autocomplete: 'off' });
  const ruleSet = h(
    'select',
    { id: 'rule-set' },
    ...['NSA_2008', 'WESPA', 'FRIENDLY', 'ONLINE_VOID', 'MATCH_VARIANT'].map((r) => h('option', { value: r }, r)),
  );
  const list = h('ul', { id: 'games', class: 'games', 'aria-live': 'polite' });
  const robots = h('div', { id: 'robots' });
  const start = async (who: string) => {
    try {
      const g = await createGame(who, ruleSet.value);
      location.hash = `#game=${g.id}`;
    } catch (e) {
      alert.textContent = message(e);
      alert.className = 'alert';
    }
  };
  replaceContent(root, [
    h('h1', {}, 'My games'),
    h('p', {}, h('button', { type: 'button', id: 'sign-out', onclick: () => (signOut(), route()) }, 'Sign out')),
    list,
    h(
      'form',
      { class: 'new-game', onsubmit: (e: Event) => (e.preventDefault(), void start(opponent.value.trim())) },
      h('h2', {}, 'New game'),
      h('label', { for: 'opponent' }, 'Opponent’s handle'),
      opponent,
      h('label', { for: 'rule-set' }, 'Rules'),
      ruleSet,
      h('button', { type: 'submit', id: 'new-game' }, 'Start the game'),
    ),
    robots,
    alert,
  ]);
  const refresh = async () => {
    try {
      const games = await myGames();
      list.replaceChildren(...(games.length ? games.map(gameLine) : [h('li', {}, 'No games yet: start one below.')]));
    } catch (e) {
      alert.textContent = message(e);
      alert.className = 'alert';
    }
  };
  await refresh();
  // Left for a game (or signed out) during the first read: a stream opened now would follow the list for good.
  if (screen !== null || !list.isConnected) return;
  // The list changes with your own events (a game started, your turn, a game over): read it again on each.
  listLive = followMine({
    onChange: coalesced(refresh),
    onRefused: (status) => {
      // A server without the stream (501 on Lambda for now, 404 before it existed): read the list every 5 s.
      if (status === 501 || status === 404) listTimer = window.setInterval(() => void refresh(), 5000);
    },
  });
  // One button per robot the server offers; a server without robots lists none.
  const available = await robotOpponents().catch(() => []);
  for (const r of available)
    robots.append(h('button', { type: 'button', class: 'robot', onclick: () => void start(r) }, `Play the robot ${r}`));
};

const route = (): void => {
  screen?.stop();
  screen = null;
  window.clearInterval(listTimer);
  listLive?.stop();
  listLive = null;
  updatePushToggle(signedIn());
  if (!signedIn()) return signInView();
  const game = /^#game=([\w-]+)$/.exec(location.hash);
  if (game) {
    screen = new GameScreen(root, game[1]!);
    void screen.start();
    return;
  }
  void listView();
};

window.addEventListener('hashchange', route);
route();
