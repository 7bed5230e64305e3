/**
 * graphql-js for our own modules. Import it from here, never from 'graphql' directly: graphql ships
 * both CommonJS (`main`) and ESM (`module`) builds, and while Node (and so Pothos and Yoga) loads the
 * CommonJS one, Vite/vitest resolves a bare 'graphql' in our sources to the ESM one. Two copies break
 * graphql's `instanceof` checks ("Cannot use GraphQLObjectType from another module or realm"), so we
 * name the CommonJS entry explicitly and every runtime gets the same copy.
 */
export * from 'graphql/index.js';
