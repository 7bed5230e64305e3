/**
 * Types for `edmonds-blossom-fixed` 1.0.1, which ships none: Matt Krick's JavaScript port of Joris van
 * Rantwijk's maximum weighted matching (http://jorisvr.nl/maximummatching.html). It is `edmonds-blossom`
 * 1.0.0 with three variables declared that 1.0.0 assigns undeclared (`b`, `path`, `v`): 1.0.0 leaks them
 * as globals, and throws a ReferenceError once bundled into an ES module (strict mode, as the Lambda
 * bundles are) the first time the matching forms a blossom.
 */
declare module 'edmonds-blossom-fixed' {
  /**
   * A maximum-weight matching of an undirected graph given as edges `[i, j, weight]` over vertices
   * 0..n-1 (n = 1 + the largest index named). With `maxCardinality`, a maximum-weight matching among
   * those of maximum cardinality. Returns `mate`: `mate[v]` is v's partner or -1; an empty edge list
   * returns an empty array, and vertices above the largest index named are absent.
   */
  function blossom(edges: readonly (readonly [number, number, number])[], maxCardinality?: boolean): number[];
  export = blossom;
}
