/**
 * What the touch strip above a level dial shows, in the keys of the built-in `$B1` layout (title, value and
 * an indicator bar). Volume and brightness run from 0 to 1 and are shown as percentages.
 */

export type LevelProperty = 'volume' | 'brightness';

export type LevelView =
  | { kind: 'value'; property: LevelProperty; transport: string; value: number }
  | { kind: 'offline'; property: LevelProperty; transport: string }
  | { kind: 'waiting'; property: LevelProperty; transport: string }
  | { kind: 'setup'; message: string };

export interface LevelFeedback {
  [key: string]: string | { value: number; opacity: number };
  title: string;
  value: string;
  indicator: { value: number; opacity: number };
}

export function levelTitle(property: LevelProperty, transport: string): string {
  return `${property === 'volume' ? 'Volume' : 'Brightness'} \u00b7 ${transport}`;
}

export function percent(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 100);
}

export function levelFeedback(view: LevelView): LevelFeedback {
  switch (view.kind) {
    case 'value':
      return {
        title: levelTitle(view.property, view.transport),
        value: `${percent(view.value)}%`,
        indicator: { value: percent(view.value), opacity: 1 },
      };
    case 'offline':
      return { title: levelTitle(view.property, view.transport), value: 'OFFLINE', indicator: { value: 0, opacity: 0.2 } };
    case 'waiting':
      return { title: levelTitle(view.property, view.transport), value: '--', indicator: { value: 0, opacity: 0.2 } };
    case 'setup':
      return { title: 'Set up', value: view.message, indicator: { value: 0, opacity: 0.2 } };
  }
}
