/**
 * What the robot queue's two ends share (issue 19), kept apart so that the CDK stack can name the
 * variable without importing the functions: the environment variable holding the queue's URL (set by
 * the stack on the API function) and a message's body.
 */
export const ROBOT_QUEUE_ENV = 'ARBITER_ROBOT_QUEUE_URL';

/** The body of a robot-queue message. */
export interface RobotMessage {
  readonly gameId: string;
}
