/**
 * cdk-nag's AwsSolutions pack over the stack as `npm run synth` builds it (infra/app.ts: every bundle,
 * production context), with the bundles stubbed as infra/stack.test.ts does: zero findings left, each
 * acknowledged one with its written reason in the construct it concerns (Validations.acknowledge).
 */
import { App } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, test } from 'vitest';
import { ArbiterStack, type ArbiterStackProps } from './stack.js';

const stub = (name: string) => lambda.Code.fromInline(`exports.handler = async () => '${name}';`);
const CODE = {
  graphql: stub('graphql'),
  webhooks: stub('webhooks'),
  migrate: stub('migrate'),
  deadlines: stub('deadlines'),
  rotateJwtSecret: stub('rotate-jwt-secret'),
  robots: stub('robots'),
  stream: stub('stream'),
  notifications: stub('notifications'),
  mailFeedback: stub('mail-feedback'),
};

const findings = (props: Partial<ArbiterStackProps> = {}) => {
  const app = new App();
  const stack = new ArbiterStack(app, 'Nag', { code: CODE, ...props });
  const report = new AwsSolutionsChecks(app).validateScope(stack);
  return report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.resourceLogicalId).join(', ')}`);
};

describe('cdk-nag AwsSolutions', () => {
  test('finds nothing unacknowledged in the production stack', () => {
    expect(findings()).toEqual([]);
  });

  test('nor with mail through SES and a cap on open streams', () => {
    expect(findings({ notifications: { mailDomain: 'arbiter.example.org' }, streams: { maxStreams: 50 } })).toEqual([]);
  });

  test('nor in the NAT-less variant, nor with an alarm e-mail', () => {
    expect(findings({ network: { natGateways: 0 }, alarms: { email: 'ops@example.com' } })).toEqual([]);
  });
});
