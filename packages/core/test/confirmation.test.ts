import { describe, expect, it } from 'vitest';
import { endpointList, FAILOVER_OPERATIONS, isFailoverOperation, needsConfirmation } from '../src/index.js';

describe('which operations need a confirmation', () => {
  it('are the irreversible hardware operations, those that move the show or stop its workloads, python and a rig check plan, and no others', () => {
    const confirmed = endpointList.filter(needsConfirmation).map((spec) => spec.id);
    expect(confirmed.sort()).toEqual([
      'failoverMachine',
      'powerCycle',
      'powerOff',
      'pythonExecute',
      'pythonRegisterModule',
      'renderStreamFailover',
      'renderStreamFailoverPool',
      'restoreMachine',
      'rigCheckExecutePlan',
      'smcClearAll',
      'smcEnableDowngrade',
      'stopLayers',
    ]);
  });

  it('names the failover operations by their path, and knows only those', () => {
    for (const [operation, spec] of Object.entries(FAILOVER_OPERATIONS)) expect(spec.path).toBe(`/api/session/failover/${operation}`);
    expect(Object.keys(FAILOVER_OPERATIONS).filter((operation) => needsConfirmation(FAILOVER_OPERATIONS[operation as keyof typeof FAILOVER_OPERATIONS]))).toEqual([
      'failovermachine',
      'restoremachine',
    ]);
    expect(isFailoverOperation('settings')).toBe(true);
    expect(isFailoverOperation('toString')).toBe(false);
    expect(isFailoverOperation(undefined)).toBe(false);
  });
});
