import type { SetList, Track, TrackAnnotations } from '@stagelink/core';

export type Annotations = TrackAnnotations['annotations'];

/** A track with its notes, tags and sections. Times and lengths are seconds from the start of the track. */
export interface ShowTrack extends Track {
  /** Sections are sorted by time and the first starts at 0. */
  readonly annotations: Annotations;
}

export interface ShowSetList {
  readonly uid: string;
  readonly name: string;
  readonly tracks: readonly ShowTrack[];
}

export function trackOnWire({ uid, name, length, crossfade }: ShowTrack): Track {
  return { uid, name, length, crossfade };
}

export function setListOnWire(setList: ShowSetList): SetList {
  return { uid: setList.uid, name: setList.name, tracks: setList.tracks.map(trackOnWire) };
}

export function annotationsOf(track: ShowTrack): TrackAnnotations {
  const { notes, tags, sections } = track.annotations;
  return {
    uid: track.uid,
    name: track.name,
    annotations: {
      notes: notes.map((note) => ({ ...note })),
      tags: tags.map((tag) => ({ ...tag })),
      sections: sections.map((section) => ({ ...section })),
    },
  };
}
