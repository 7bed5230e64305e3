import { printSchema, lexicographicSortSchema, type GraphQLSchema } from './graphql.js';
import { builder } from './builder.js';
// Each module adds its types and fields to the builder; add new ones here (e.g. './game.js').
import './errors.js';
import './rules.js';
import './tile-sets.js';
import './disputes.js';
import './players.js';
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
import './webhooks.js';
import './analysis.js';
import './robots.js';
import './nodes.js';

/** The whole API schema, built once when this module is first imported. */
export const schema: GraphQLSchema = builder.toSchema();

/** The schema as SDL, sorted so that the committed `schema.graphql` diffs cleanly. */
export const printArbiterSchema = (s: GraphQLSchema = schema): string => `${printSchema(lexicographicSortSchema(s))}\n`;
