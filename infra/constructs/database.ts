import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as rds from 'aws-cdk-lib/aws-rds';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { SECRET_ENV } from '../../functions/secrets.js';

export const DB_PORT = 5432;
/** Aurora PostgreSQL 17: supports Serverless v2 down to 0 ACU (auto-pause) and RDS Proxy. */
export const AURORA_ENGINE_VERSION = rds.AuroraPostgresEngineVersion.VER_17_5;

export interface DatabaseProps {
  readonly vpc: ec2.IVpc;
  readonly databaseSubnets: ec2.SubnetSelection;
  /** Where the proxy's network interfaces live (the functions' subnets). */
  readonly proxySubnets: ec2.SubnetSelection;
  readonly databaseName?: string;
  /**
   * Serverless v2 floor in ACUs (default 0.5). 0 turns on auto-pause, but the per-minute sweeper and
   * sender connect every minute, so the cluster would rarely reach its 5 idle minutes.
   */
  readonly minCapacity?: number;
  /** Serverless v2 ceiling in ACUs (default 4; each ACU ≈ 2 GiB of memory). */
  readonly maxCapacity?: number;
  /** Share of the database's max_connections the proxy may open (default 80, leaving room for admin sessions). */
  readonly maxConnectionsPercent?: number;
  /** Idle pooled connections kept, as a share of max_connections (default 20). */
  readonly maxIdleConnectionsPercent?: number;
  /** Default true: the cluster cannot be deleted until this is turned off (the `dev` context of infra/app.ts turns it off). */
  readonly deletionProtection?: boolean;
  /** Default SNAPSHOT: deleting the stack leaves a final snapshot. */
  readonly removalPolicy?: RemovalPolicy;
  /** Where the password-rotation function runs (it reaches the cluster and Secrets Manager); default the proxy's subnets. */
  readonly rotationSubnets?: ec2.SubnetSelection;
  /** Days between password rotations (default 30). */
  readonly rotationDays?: number;
}

/**
 * Aurora PostgreSQL Serverless v2 (one writer, encrypted storage, TLS enforced by the server) behind an
 * RDS Proxy that requires TLS. Credentials are generated into Secrets Manager; functions reach the
 * database only through the proxy, and the proxy's security group admits only the groups given to
 * {@link allowFrom}.
 */
export class Database extends Construct {
  readonly cluster: rds.DatabaseCluster;
  readonly proxy: rds.DatabaseProxy;
  readonly secret: secretsmanager.ISecret;
  readonly databaseName: string;
  /** The ceiling of the writer's capacity, in ACUs (the alarms watch for it). */
  readonly maxCapacity: number;
  readonly clusterSecurityGroup: ec2.SecurityGroup;
  readonly proxySecurityGroup: ec2.SecurityGroup;
  readonly rotation: secretsmanager.SecretRotation;

  constructor(scope: Construct, id: string, props: DatabaseProps) {
    super(scope, id);
    this.databaseName = props.databaseName ?? 'arbiter';
    this.clusterSecurityGroup = new ec2.SecurityGroup(this, 'ClusterSg', {
      vpc: props.vpc,
      description: 'Arbiter Aurora cluster: Postgres from the RDS Proxy only',
      allowAllOutbound: false,
    });
    this.proxySecurityGroup = new ec2.SecurityGroup(this, 'ProxySg', {
      vpc: props.vpc,
      description: 'Arbiter RDS Proxy: Postgres from the functions only',
      allowAllOutbound: false,
    });
    const engine = rds.DatabaseClusterEngine.auroraPostgres({ version: AURORA_ENGINE_VERSION });
    this.maxCapacity = props.maxCapacity ?? 4;
    this.cluster = new rds.DatabaseCluster(this, 'Cluster', {
      engine,
      writer: rds.ClusterInstance.serverlessV2('writer', { publiclyAccessible: false, autoMinorVersionUpgrade: true }),
      serverlessV2MinCapacity: props.minCapacity ?? 0.5,
      serverlessV2MaxCapacity: this.maxCapacity,
      credentials: rds.Credentials.fromGeneratedSecret('arbiter'),
      defaultDatabaseName: this.databaseName,
      storageEncrypted: true,
      vpc: props.vpc,
      vpcSubnets: props.databaseSubnets,
      securityGroups: [this.clusterSecurityGroup],
      port: DB_PORT,
      parameters: { 'rds.force_ssl': '1' },
      backup: { retention: Duration.days(7) },
      deletionProtection: props.deletionProtection ?? true,
      // Allowed, not used: the functions authenticate through the proxy with the rotated secret. It lets an
      // operator sign in with IAM credentials instead of the master password (cdk-nag RDS6).
      iamAuthentication: true,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.SNAPSHOT,
    });
    this.secret = this.cluster.secret!;
    // Secrets Manager's own single-user rotation for PostgreSQL: a new master password every 30 days. The
    // proxy reads the secret itself; the functions read the password per new connection and again when
    // it is refused (functions/secrets.ts), so no deployment is needed.
    this.rotation = this.cluster.addRotationSingleUser({
      automaticallyAfter: Duration.days(props.rotationDays ?? 30),
      vpcSubnets: props.rotationSubnets ?? props.proxySubnets,
    });
    this.proxy = new rds.DatabaseProxy(this, 'Proxy', {
      proxyTarget: rds.ProxyTarget.fromCluster(this.cluster),
      secrets: [this.secret],
      vpc: props.vpc,
      vpcSubnets: props.proxySubnets,
      securityGroups: [this.proxySecurityGroup],
      requireTLS: true,
      iamAuth: false,
      clientPasswordAuthType: rds.ClientPasswordAuthType.POSTGRES_SCRAM_SHA_256,
      maxConnectionsPercent: props.maxConnectionsPercent ?? 80,
      maxIdleConnectionsPercent: props.maxIdleConnectionsPercent ?? 20,
      borrowTimeout: Duration.seconds(30),
      idleClientTimeout: Duration.minutes(30),
    });
    // DatabaseProxy itself opens the cluster's port to the proxy's group (ingress and egress); nothing else gets in.
  }

  /** Lets `peer` (the functions' security group) open connections to the proxy. */
  allowFrom(peer: ec2.ISecurityGroup, description: string): void {
    this.proxySecurityGroup.addIngressRule(peer, ec2.Port.tcp(DB_PORT), description);
  }

  /** What a function needs to find the database: names and ARNs, never the password (functions/secrets.ts reads it). */
  get connectionEnvironment(): Record<string, string> {
    return {
      [SECRET_ENV.DB_SECRET_ARN]: this.secret.secretArn,
      [SECRET_ENV.DB_HOST]: this.proxy.endpoint,
      [SECRET_ENV.DB_PORT]: String(DB_PORT),
      [SECRET_ENV.DB_NAME]: this.databaseName,
    };
  }
}
