import type { Cdl, Look, MediaFile, Note, ProjectInfo, ShotRecorder } from '@stagelink/core';
import type { SeededRandom } from '../random.js';
import type { IndirectionModel } from '../sequencing.js';
import type { UidSource } from '../uids.js';

export interface LibrarySeed {
  project: ProjectInfo;
  mediaFiles: MediaFile[];
  indirections: IndirectionModel[];
  notes: Note[];
  recorder: ShotRecorder;
  looks: Look[];
  cdls: Cdl[];
}

const MEDIA_PATHS = [
  'video/intro.mov',
  'video/loops/ocean.mov',
  'video/loops/sunrise.mov',
  'video/loops/city.mov',
  'audio/theme.wav',
  'images/logo-white.png',
  'images/logo-black.png',
  'objects/stage.obj',
];

/** Seeded media files were written during March 2024. */
const MEDIA_EPOCH = Date.UTC(2024, 2, 1, 9, 0, 0);

/** The project's content: media files, indirections, named notes, the shot recorder, looks and CDLs. */
export function seedLibrary(uids: UidSource, random: SeededRandom): LibrarySeed {
  const ref = (name: string) => ({ uid: uids.next(), name });
  const backdrops = ['ocean.mov', 'sunrise.mov', 'city.mov'].map(ref);
  const logos = ['logo-white.png', 'logo-black.png'].map(ref);
  return {
    project: {
      projectPath: 'D:/Shows/stagelink-demo/stagelink-demo.show',
      version: { major: 31, minor: 2, hotfix: 1, revision: 204815, releaseType: 'release' },
    },
    mediaFiles: MEDIA_PATHS.map((path) => mediaFile(random, path)),
    indirections: [
      { ...ref('Backdrop'), resourceType: 'video', resources: backdrops, currentUid: backdrops[1]?.uid ?? '0' },
      { ...ref('Logo'), resourceType: 'image', resources: logos, currentUid: logos[0]?.uid ?? '0' },
    ],
    notes: [
      ['Welcome', 'Doors at 19:00, show at 19:30.'],
      ['Safety', 'Pyro cleared by the fire officer.'],
      ['Cast list', 'Understudy on for the lead tonight.'],
      ['Stage manager', 'Call the show from the prompt desk.'],
      ['Encore', 'Only if the house stands.'],
      ['Strike', 'Load out starts at 23:00.'],
    ].map(([name = '', text = '']) => ({ note: ref(name), text })),
    recorder: { engaged: false, name: 'Main camera', slate: '1A', take: 1 },
    looks: [look(uids, 'Warm', 'Golden hour wash', 0.8, 'soft', backdrops[1]), look(uids, 'Night', 'Moonlight and haze', 0.3, 'hard', backdrops[0])],
    cdls: [
      cdl(ref('Camera A grade'), { x: 1.05, y: 1, z: 0.95 }, { x: 0.01, y: 0, z: -0.01 }, 1.1),
      cdl(ref('Neutral'), { x: 1, y: 1, z: 1 }, { x: 0, y: 0, z: 0 }, 1),
    ],
  };
}

function mediaFile(random: SeededRandom, path: string): MediaFile {
  const created = MEDIA_EPOCH + random.integer(0, 30 * 24 * 60) * 60_000;
  const written = created + random.integer(0, 7 * 24 * 60) * 60_000;
  return {
    path,
    size: String(random.integer(50_000, 4_000_000_000)),
    creationDate: new Date(created).toISOString(),
    lastWriteDate: new Date(written).toISOString(),
  };
}

function look(uids: UidSource, name: string, description: string, intensity: number, edge: string, texture: { uid: string; name: string } | undefined): Look {
  return {
    address: `looks/${name.toLowerCase()}`,
    uid: uids.next(),
    description,
    fields: [
      {
        name: 'intensity',
        displayName: 'Intensity',
        groupName: 'Light',
        type: 'float',
        floatMeta: { min: 0, max: 1, defaultValue: 1, step: 0.01 },
        floatValue: { value: intensity, duration: 2, easingFunction: 'easeInOut', startValue: 1, currentValue: intensity },
      },
      {
        name: 'edge',
        displayName: 'Edge',
        groupName: 'Light',
        type: 'string',
        stringMeta: { options: ['soft', 'hard'], defaultValue: 'soft' },
        stringValue: edge,
      },
      {
        name: 'texture',
        displayName: 'Texture',
        groupName: 'Content',
        type: 'resource',
        resourceMeta: { type: 'video' },
        resourceValue: texture ?? { uid: '0', name: '' },
      },
    ],
  };
}

function cdl(ref: { uid: string; name: string }, slope: Cdl['slope'], offset: Cdl['offset'], saturation: number): Cdl {
  return { ...ref, slope, offset, power: { x: 1, y: 1, z: 1 }, saturation };
}
