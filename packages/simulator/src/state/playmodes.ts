/** The playmodes a transport reports (the API documents name the first three; `stop` is the simulator's). */
export const PLAYMODES = {
  play: 'play',
  loopSection: 'loop section',
  playSection: 'play to end of section',
  stop: 'stop',
} as const;

export type Playmode = (typeof PLAYMODES)[keyof typeof PLAYMODES];
