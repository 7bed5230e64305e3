import { ROBOT_OPPONENTS } from '../service/robot-seats.js';
import { builder } from './builder.js';

/** The robot opponents a game may seat (issue 19); the play page offers each as "play the robot". */

const RobotType = builder.objectRef<(typeof ROBOT_OPPONENTS)[number]>('Robot').implement({
  description: 'A robot opponent: pass its handle as createGame’s opponent to seat it.',
  fields: (t) => ({
    handle: t.exposeString('handle', { description: 'Its handle, e.g. `robot:equity`: the value of CreateGameInput.opponent.' }),
    displayName: t.exposeString('displayName', { description: 'Its name as shown to players.' }),
    description: t.exposeString('description', { description: 'How it chooses its moves.' }),
  }),
});

builder.queryField('robots', (t) =>
  t.field({
    type: [RobotType],
    description: 'The robot opponents this server offers. Open to anyone; a robot needs its lexicon’s move graph (.kwg) to play.',
    resolve: () => ROBOT_OPPONENTS,
  }),
);
