import type * as SqsModule from '@aws-sdk/client-sqs';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { RobotMessage } from './robot-env.js';

type Sqs = typeof SqsModule;
let sdk: Promise<Sqs> | undefined;
/** The SQS client's module costs ~50–100 ms to load: on the first robot turn, not on every cold start. */
const loadSqs = (): Promise<Sqs> => (sdk ??= import('@aws-sdk/client-sqs'));

/**
 * The API's `robotTurns` hook on AWS: one message on the robot queue per commit that may have handed a
 * robot the move. Sending is all the request does; the robot Lambda plays the move from the queue.
 */
export const sqsRobotTurns = (queueUrl: string, given?: Pick<SQSClient, 'send'>) => {
  let client: Pick<SQSClient, 'send'> | undefined = given;
  return async (gameId: string): Promise<void> => {
    const { SQSClient, SendMessageCommand } = await loadSqs();
    client ??= new SQSClient({});
    const body: RobotMessage = { gameId };
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(body) }));
  };
};
