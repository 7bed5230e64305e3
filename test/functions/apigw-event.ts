/**
 * The recorded API Gateway HTTP API (payload v2) event of a GraphQL request, and a Lambda context, that the
 * suites driving the Lambda handler start from (each then sets its own body, headers and token).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, Context as LambdaContext } from 'aws-lambda';

export const RECORDED_GRAPHQL_EVENT = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'apigw', 'http-api-v2-graphql.json'), 'utf8'),
) as APIGatewayProxyEventV2;

/** A context of the GraphQL function; `awsRequestId` tells one suite's requests from another's. */
export const lambdaContext = (awsRequestId: string): LambdaContext =>
  ({ awsRequestId, functionName: 'arbiter-graphql', getRemainingTimeInMillis: () => 30_000 }) as unknown as LambdaContext;
