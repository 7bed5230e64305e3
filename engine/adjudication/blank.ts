import type { RuleSet } from '../rules/ruleset.js';
import type { BlankDesignationDispute } from './dispute.js';
import { citeParams, mergeCitations, noRule, onlineNoRule, ruling, type Ruling } from './ruling.js';

/**
 * A blank not designated when the clock was pressed (`play.undeclaredBlank`: WESPA 3.8(b), NASPA IV.F.1) or
 * a designation disputed later (`play.blankDispute`: WESPA 3.8(c)–(d); NASPA IV.F.2.b, fixed from the play
 * after the next; seed-003 rule 10, fixed for the rest of the game).
 */
export const adjudicateBlankDesignation = (d: BlankDesignationDispute, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'an undesignated or disputed blank');
  if (online) return online;
  if (d.designation === 'undeclared') {
    const cites = citeParams(rs, 'play.undeclaredBlank');
    if (rs.play.undeclaredBlank === 'none') return noRule(`${rs.name} gives no remedy for a blank left undesignated.`, cites);
    return ruling(
      'BLANK_DECLARATION_DEMANDED',
      [{ type: 'clock', party: 'player', action: 'restart', seconds: null, when: 'now, until the blank is designated' }],
      cites,
      "The clock was pressed with the blank undesignated, so the opponent restarts the player's clock and asks for the designation; the press does not make the turn a pass.",
    );
  }
  const cites = citeParams(rs, 'play.blankDispute');
  if (d.playsSince === 0 && rs.play.blankDisputeNextTurn === 'none' && rs.play.blankDispute !== 'none')
    return noRule(
      `${rs.name} has no known rule for a designation disputed on the turn right after the blank was played.`,
      citeParams(rs, 'play.blankDispute', 'play.blankDisputeNextTurn'),
    );
  switch (rs.play.blankDispute) {
    case 'none':
      return noRule(`${rs.name} has no rule for a blank designation disputed later.`, cites);
    case 'fixed':
      return ruling(
        'DESIGNATION_STANDS',
        [],
        cites,
        'A blank stays the letter it was designated as for the rest of the game, so the designation stands.',
      );
    case 'fixed-after-next-play':
      return ruling(
        'DESIGNATION_STANDS',
        [],
        mergeCitations(cites, citeParams(rs, 'play.blankDisputeNextTurn')),
        d.playsSince === 0
          ? 'The turn right after the blank was played follows the rule of later turns, on which its designation cannot be changed.'
          : `${d.playsSince === 1 ? 'A play has' : `${d.playsSince} plays have`} been made since the blank was played, and from then on its designation cannot be changed.`,
      );
    case 'wespa-3.8':
      return d.designation === 'improperly-declared'
        ? ruling(
            'DIRECTOR_DISCRETION',
            [
              {
                type: 'director-decides',
                question:
                  'whether the opponent could reasonably have misread the blank; if so the opponent names the letter and the words containing it may be challenged',
              },
            ],
            cites,
            'An improperly designated blank disputed later goes to the director, who may let the opponent name the letter they reasonably read; the words containing it then become challengeable.',
          )
        : ruling(
            'DIRECTOR_DISCRETION',
            [{ type: 'director-decides', question: 'whether a move made on a misunderstanding of the blank is replayed' }],
            cites,
            'The blank was properly designated, so the designation stands; the director may allow a move made on a misunderstanding of it to be replayed.',
          );
  }
};
