import { cite, ruleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import { NSA_2008 } from '../rules/presets.js';
import type { RuleSet } from '../rules/ruleset.js';
import { rackValue } from '../tiles.js';
import type { GcgDocument } from './document.js';
import { tilesOf } from './rack-text.js';
import { chooseTileSet } from './tile-set.js';

const GCG = (rule: string) => cite('gcg', rule);

const LAYOUT_NAMES: Readonly<Record<string, string>> = {
  crosswordgame: 'CrosswordGame',
  standard15: 'CrosswordGame',
  supercrosswordgame: 'SuperCrosswordGame',
  standard21: 'SuperCrosswordGame',
};
const GAME_TYPES = ['classic'] as const;

const pragma = (doc: GcgDocument, keyword: string): string | undefined => doc.pragmas.find((p) => p.keyword === keyword)?.value;

/**
 * The rule set a record shows (never fail a real record for a choice the record itself makes):
 * `(challenge) +N` lines mean a points challenge rule (per word, N the smallest bonus); an ending
 * that gives 1× the opponent's rack with a matching penalty line means the +1×/−1× transfer;
 * otherwise NSA-style double challenge with 2× for going out. The board from the pragmas, the tiles
 * as `chooseTileSet` picks them (an explicit `tileSet` first).
 */
export function inferRules(doc: GcgDocument, tileSet?: string | null): Result<RuleSet> {
  const gameType = pragma(doc, 'game-type');
  if (gameType !== undefined && !(GAME_TYPES as readonly string[]).includes(gameType.toLowerCase())) {
    return err(
      ruleError(
        'UNKNOWN_VARIANT',
        `The record is a "${gameType}" game; Arbiter replays classic games only.`,
        { gameType },
        GCG('§2 game-type'),
      ),
    );
  }
  const layoutPragma = pragma(doc, 'board-layout');
  const layout = layoutPragma === undefined ? 'CrosswordGame' : LAYOUT_NAMES[layoutPragma.toLowerCase()];
  if (!layout)
    return err(
      ruleError(
        'UNKNOWN_VARIANT',
        `The record's board layout "${layoutPragma}" is not one Arbiter has.`,
        { layout: layoutPragma },
        GCG('§2 board-layout'),
      ),
    );
  const chosen = chooseTileSet(doc, layout, tileSet);
  if (!chosen.ok) return chosen;
  const dist = chosen.value.distribution;
  const bonuses = doc.events.filter((e) => e.kind === 'challenge-bonus' && e.score > 0).map((e) => e.score);
  let transfer = false;
  doc.events.forEach((e, i) => {
    const tiles = e.kind === 'end-rack-points' ? tilesOf(e.tiles) : null;
    if (!tiles || tiles.length === 0 || e.score !== rackValue(dist, tiles)) return;
    transfer ||= doc.events.slice(i + 1).some((f) => f.kind === 'end-rack-penalty' && f.player !== e.player && f.score === -e.score);
  });
  const base = NSA_2008;
  return ok({
    ...base,
    id: 'GCG_IMPORT',
    name: 'Inferred from a GCG record',
    description: 'Double challenge and 2× going out unless the record shows challenge bonuses or the 1× transfer ending.',
    board: { ...base.board, layout, distribution: dist.name },
    challenge: bonuses.length ? { ...base.challenge, mode: 'points-per-word', points: Math.min(...bonuses) } : base.challenge,
    end: { ...base.end, goingOut: transfer ? 'transfer-opponent-rack' : 'double-opponent-rack' },
  });
}
