/**
 * The bridge's MQTT topics (the package README's topic table). Every name that comes from the session (a machine's
 * hostname, a transport's or a RenderStream layer's name) is one topic segment: `/` would split it, and `+` and `#`
 * are wildcards a broker refuses in a published topic.
 */

/** `/`, `+` and `#` become `_`; an empty name becomes `_` so the segment is never empty. */
export function topicSegment(name: string): string {
  const segment = name.replace(/[/+#]/g, '_');
  return segment === '' ? '_' : segment;
}

/** The default prefix: `stagelink/<hostname of the server>`, in the case it was given, made a segment. */
export function defaultPrefix(server: string): string {
  const hostPort = server.trim().replace(/^https?:\/\//i, '').split('/')[0] ?? '';
  const hostname = hostPort.startsWith('[') ? hostPort.slice(1, Math.max(1, hostPort.indexOf(']'))) : hostPort.replace(/:\d*$/, '');
  return `stagelink/${topicSegment(hostname)}`;
}

/** Where each kind of message goes, under one prefix. */
export class Topics {
  constructor(readonly prefix: string) {}

  get bridge(): string {
    return `${this.prefix}/bridge`;
  }
  get director(): string {
    return `${this.prefix}/director`;
  }
  get sessionHealth(): string {
    return `${this.prefix}/session/health`;
  }
  machineHealth(hostname: string): string {
    return `${this.prefix}/machines/${topicSegment(hostname)}/health`;
  }
  machineFps(hostname: string): string {
    return `${this.prefix}/machines/${topicSegment(hostname)}/fps`;
  }
  machineTakeover(hostname: string): string {
    return `${this.prefix}/machines/${topicSegment(hostname)}/takeover`;
  }
  machineHardware(hostname: string): string {
    return `${this.prefix}/machines/${topicSegment(hostname)}/hardware`;
  }
  /**
   * Every machine's FPS and health in one message (the dashboard topic). Not under `machines/`: a `machines/#`
   * subscription matches that level itself too, and would start getting a message of another shape.
   */
  get summary(): string {
    return `${this.prefix}/summary`;
  }
  transportState(name: string): string {
    return `${this.prefix}/transports/${topicSegment(name)}/state`;
  }
  transportClock(name: string): string {
    return `${this.prefix}/transports/${topicSegment(name)}/clock`;
  }
  /** A RenderStream layer's workload. */
  renderstreamLayer(name: string): string {
    return `${this.prefix}/renderstream/${topicSegment(name)}`;
  }
  /** What the bridge subscribes to: every command topic. */
  get commands(): string {
    return `${this.prefix}/cmd/#`;
  }
  get commandRoot(): string {
    return `${this.prefix}/cmd/`;
  }
  /** Results of commands that name no MQTT 5 response topic. */
  get result(): string {
    return `${this.prefix}/result`;
  }
}

/** A prefix must be a publishable topic of its own: no wildcards, no empty levels, not a `$` system topic. */
export function checkPrefix(prefix: string): string | undefined {
  if (prefix === '') return 'the prefix is empty';
  if (/[+#]/.test(prefix)) return 'the prefix may not contain + or #';
  if (prefix.startsWith('$')) return 'the prefix may not start with $ (system topics)';
  if (prefix.startsWith('/') || prefix.endsWith('/') || prefix.includes('//')) return 'the prefix may not have empty levels (a leading, trailing or double /)';
  return undefined;
}
