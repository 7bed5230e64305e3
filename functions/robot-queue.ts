import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { RobotMessage } from './robot-env.js';

/**
 * The API's `robotTurns` hook on AWS: one message on the robot queue per commit that may have handed a
 * robot the move. Sending is all the request does; the robot Lambda plays the move from the queue.
 */
export const sqsRobotTurns = (queueUrl: string, client: Pick<SQSClient, 'send'> = new SQSClient({})) => {
  return async (gameId: string): Promise<void> => {
    const body: RobotMessage = { gameId };
    await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(body) }));
  };
};
