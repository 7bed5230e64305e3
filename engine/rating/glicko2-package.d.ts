/**
 * Types for `glicko2` 1.2.2 (mmai/glicko2js, MIT), which ships none. Only what `glicko2.ts` uses is typed.
 * The package is CommonJS and keeps its players inside the `Glicko2` instance, so callers make one
 * instance per computation.
 */
declare module 'glicko2' {
  namespace glicko2 {
    interface Settings {
      /** τ. Falsy values fall back to 0.5, so pass it explicitly. */
      tau?: number;
      /** Default rating, also the centre of the Glicko-2 scale conversion. */
      rating?: number;
      rd?: number;
      vol?: number;
      volatility_algorithm?: 'newprocedure' | 'oldprocedure' | 'newprocedure_mod' | 'oldprocedure_simple';
    }
    interface Player {
      getRating(): number;
      getRd(): number;
      getVol(): number;
    }
    /** A result from player 1's side: 1 win, 0.5 draw, 0 loss. */
    type Match = readonly [Player, Player, number];
    class Glicko2 {
      constructor(settings?: Settings);
      /** Zero or missing values are replaced by the instance defaults (the package tests with `||`). */
      makePlayer(rating?: number, rd?: number, vol?: number): Player;
      /** Rates every player of the instance; one with no match gets Glicko-2 step 6 only. */
      updateRatings(matches?: readonly Match[]): void;
    }
  }
  const glicko2: { Glicko2: typeof glicko2.Glicko2 };
  export = glicko2;
}
