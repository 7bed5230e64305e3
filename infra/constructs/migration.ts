import { Duration } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as triggers from 'aws-cdk-lib/triggers';
import { Construct } from 'constructs';
import { ArbiterFunction } from './function.js';

export interface MigrationProps {
  /** The functions/migrate.ts bundle, with `migrations/` next to it. */
  readonly code: lambda.Code;
  readonly vpc: ec2.IVpc;
  readonly subnets: ec2.SubnetSelection;
  readonly securityGroup: ec2.ISecurityGroup;
  readonly environment: Readonly<Record<string, string>>;
  /** What must exist before migrating (the cluster, the proxy and its target). */
  readonly executeAfter: readonly Construct[];
}

/**
 * Runs the migration function during `cdk deploy`, synchronously, before whatever is handed to
 * {@link runBefore} is created or updated. It runs again whenever the function's version changes,
 * and a new migration changes the bundle, hence the version. A failing migration fails the deployment
 * and CloudFormation rolls back, so the API never serves new code on an old schema.
 */
export class Migration extends Construct {
  readonly handler: ArbiterFunction;
  readonly trigger: triggers.Trigger;

  constructor(scope: Construct, id: string, props: MigrationProps) {
    super(scope, id);
    this.handler = new ArbiterFunction(this, 'Function', {
      code: props.code,
      description: 'Arbiter: applies migrations/ to the database during deployment',
      vpc: props.vpc,
      vpcSubnets: props.subnets,
      securityGroup: props.securityGroup,
      environment: props.environment,
      memorySize: 512,
      timeout: Duration.minutes(5),
    });
    this.trigger = new triggers.Trigger(this, 'Trigger', {
      handler: this.handler,
      invocationType: triggers.InvocationType.REQUEST_RESPONSE,
      timeout: Duration.minutes(5),
      executeOnHandlerChange: true,
      executeAfter: [...props.executeAfter],
    });
  }

  /** Makes `scopes` wait for this deployment's migration. */
  runBefore(...scopes: Construct[]): void {
    this.trigger.executeBefore(...scopes);
  }
}
