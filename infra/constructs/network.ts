import { Validations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { DEFAULT_LOG_RETENTION } from './function.js';

export interface NetworkProps {
  /** Availability zones used (the database needs two). */
  readonly maxAzs?: number;
  /**
   * NAT gateways for the functions' outbound traffic. The webhook sender must reach subscribers on the
   * internet, so the default keeps one (one AZ: cheapest, at the price of egress during that AZ's outage).
   */
  readonly natGateways?: number;
  /**
   * An interface endpoint for Secrets Manager in the functions' subnets. Off by default: secret reads
   * happen once per cold start and already leave through the NAT gateway over TLS, while an endpoint
   * costs about as much as half a NAT gateway per month. Turn it on with `natGateways: 0`.
   */
  readonly secretsManagerEndpoint?: boolean;
}

/**
 * The VPC: public subnets (the NAT gateway only), private subnets with egress for the functions and
 * the RDS Proxy, isolated subnets for the database. One security group is shared by all functions;
 * the database construct admits it and nothing else.
 */
export class Network extends Construct {
  readonly vpc: ec2.Vpc;
  readonly functionSubnets: ec2.SubnetSelection;
  readonly databaseSubnets: ec2.SubnetSelection;
  readonly functionsSecurityGroup: ec2.SecurityGroup;
  readonly flowLog: ec2.FlowLog;

  constructor(scope: Construct, id: string, props: NetworkProps = {}) {
    super(scope, id);
    const natGateways = props.natGateways ?? 1;
    const endpoint = props.secretsManagerEndpoint ?? natGateways === 0;
    this.vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: props.maxAzs ?? 2,
      natGateways,
      subnetConfiguration: [
        ...(natGateways > 0 ? [{ name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 }] : []),
        { name: 'app', subnetType: natGateways > 0 ? ec2.SubnetType.PRIVATE_WITH_EGRESS : ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 22 },
        { name: 'db', subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 24 },
      ],
    });
    // Every accepted and rejected connection of the VPC, kept as long as the function logs: where a webhook
    // went, or what knocked on the database's door, can be traced (cdk-nag VPC7).
    this.flowLog = this.vpc.addFlowLog('FlowLog', {
      destination: ec2.FlowLogDestination.toCloudWatchLogs(new logs.LogGroup(this, 'FlowLogs', { retention: DEFAULT_LOG_RETENTION })),
      trafficType: ec2.FlowLogTrafficType.ALL,
    });
    this.functionSubnets = { subnetGroupName: 'app' };
    this.databaseSubnets = { subnetGroupName: 'db' };
    this.functionsSecurityGroup = new ec2.SecurityGroup(this, 'Functions', {
      vpc: this.vpc,
      description: 'Arbiter Lambda functions',
      // Webhook deliveries go to arbitrary HTTPS hosts; the database side is restricted on its own groups.
      allowAllOutbound: true,
    });
    if (endpoint) {
      const sm = this.vpc.addInterfaceEndpoint('SecretsManager', {
        service: ec2.InterfaceVpcEndpointAwsService.SECRETS_MANAGER,
        subnets: this.functionSubnets,
        privateDnsEnabled: true,
      });
      Validations.of(sm).acknowledge({
        id: 'AwsSolutions-EC23',
        reason:
          'HTTPS from inside the VPC only: the endpoint admits port 443 from the VPC CIDR (CDK’s default), which cdk-nag cannot see through the CIDR token. The functions and the password-rotation function reach Secrets Manager through it.',
      });
    }
  }
}
