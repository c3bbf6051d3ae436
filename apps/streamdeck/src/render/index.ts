/** `@stagelink/streamdeck/render`: the key faces and the dial strip, pure functions from what a key knows to SVG. */
export { clockFace } from './clock-face.js';
export { clockFeedback, type ClockFeedback } from './clock-feedback.js';
export type { ClockAlert, ClockView } from './clock-view.js';
export { cueFace, lateCueFace, type CueView, type KeyOutcome } from './cue-face.js';
export { largeAnswersFailFace, noLinkFace, problemFace, setupFace, staleFace, waitingFace } from './faces.js';
export { TEXT_MARGIN } from './fit-text.js';
export { fpsFace } from './fps-face.js';
export { hardwareSignOf, healthFace, type HardwareSign } from './health-face.js';
export { armedLayerFace, layerFace, noLayerFace, notOfferedFace } from './layer-face.js';
export { levelFeedback, type LevelFeedback, type LevelView } from './level-feedback.js';
export { KEY_SIZE, svgDataUrl } from './svg.js';
