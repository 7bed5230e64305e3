import { printSchema, lexicographicSortSchema, type GraphQLSchema } from './graphql.js';
import { builder } from './builder.js';
// Each module adds its types and fields to the builder; add new ones here (e.g. './game.js').
import './errors.js';
import './rules.js';
import './tile-sets.js';
import './disputes.js';
import './players.js';
import './sessions.js';
import './account.js';
import './game.js';
import './game-pictures.js';
import './game-disputes.js';
import './layouts.js';
import './lexicon-uploads.js';
import './recorded.js';
import './directors.js';
import './organizations.js';
import './lifecycle.js';
import './matches.js';
import './lobby.js';
import './challenges.js';
import './tournaments.js';
import './tournament-mutations.js';
import './tournament-disputes.js';
import './webhooks.js';
import './push.js';
import './apps.js';
import './notifications.js';
import './email.js';
import './analysis.js';
import './robots.js';
import './profiles.js';
import './live.js';
import './nodes.js';

/**
 * The whole API schema, built once when this module is first imported (at a Lambda cold start), in the
 * order its types and fields are defined: re-sorting it here cost every cold start 10–20 ms
 * (docs/deploying.md). What shows the order to a client reads {@link sortedSchema} instead.
 */
export const schema: GraphQLSchema = builder.toSchema({ sortSchema: false });

const sortedCopies = new WeakMap<GraphQLSchema, GraphQLSchema>();

/**
 * A copy of a schema with its types, fields and arguments in name order (graphql's
 * `lexicographicSortSchema`, made once per schema), which the REST layers (the /v1 routes and their OpenAPI
 * document, SOFA's /rest routes) build from, so their selections, hence the keys of their replies, and
 * their documents do not move when a field is defined elsewhere. Made on the first use, off the cold start.
 */
export const sortedSchema = (s: GraphQLSchema = schema): GraphQLSchema => {
  let sorted = sortedCopies.get(s);
  if (!sorted) {
    sorted = lexicographicSortSchema(s);
    sortedCopies.set(s, sorted);
    sortedCopies.set(sorted, sorted);
  }
  return sorted;
};

/** The schema as SDL, sorted so that the committed `schema.graphql` diffs cleanly. */
export const printArbiterSchema = (s: GraphQLSchema = schema): string => `${printSchema(sortedSchema(s))}\n`;
