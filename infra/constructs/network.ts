import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Construct } from 'constructs';

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
    this.functionSubnets = { subnetGroupName: 'app' };
    this.databaseSubnets = { subnetGroupName: 'db' };
    this.functionsSecurityGroup = new ec2.SecurityGroup(this, 'Functions', {
      vpc: this.vpc,
      description: 'Arbiter Lambda functions',
      // Webhook deliveries go to arbitrary HTTPS hosts; the database side is restricted on its own groups.
      allowAllOutbound: true,
    });
    if (endpoint) {
      this.vpc.addInterfaceEndpoint('SecretsManager', {
        service: ec2.InterfaceVpcEndpointAwsService.SECRETS_MANAGER,
        subnets: this.functionSubnets,
        privateDnsEnabled: true,
      });
    }
  }
}
