import { describe, expect, it } from 'vitest';
import { type ClusterState, initialClusterState } from './cluster-state.ts';
import { CoordinationRejected, CoordinationState } from './coordination-state.ts';
import { votingConfig } from './voting-config.ts';

function bootstrapped(ids: string[]): ClusterState {
  const config = votingConfig(ids);
  const s = initialClusterState('c');
  return {
    ...s,
    clusterUuid: 'u',
    coordination: { ...s.coordination, lastCommittedConfig: config, lastAcceptedConfig: config },
  };
}

const state = (base: ClusterState, term: number, version: number, config?: string[]): ClusterState => ({
  ...base,
  version,
  stateUuid: `s${term}-${version}`,
  coordination: {
    ...base.coordination,
    term,
    lastAcceptedConfig: config ? votingConfig(config) : base.coordination.lastAcceptedConfig,
  },
});

describe('CoordinationState', () => {
  const init = bootstrapped(['a', 'b', 'c']);

  it('votes once per term, and only for a later term', () => {
    const b = new CoordinationState('b', { currentTerm: 0, lastAccepted: init });
    expect(b.handleStartJoin('a', 1)).toMatchObject({ source: 'b', target: 'a', term: 1 });
    expect(() => b.handleStartJoin('c', 1)).toThrow(CoordinationRejected);
    expect(b.handleStartJoin('c', 2).term).toBe(2);
    expect(b.dirty).toBe(true);
  });

  it('wins with a quorum of both configurations, and refuses votes from voters that know a later state', () => {
    const a = new CoordinationState('a', { currentTerm: 0, lastAccepted: init });
    const own = a.handleStartJoin('a', 1);
    expect(a.handleJoin(own)).toBe(false);
    expect(() =>
      a.handleJoin({ source: 'b', target: 'a', term: 1, lastAcceptedTerm: 1, lastAcceptedVersion: 3 }),
    ).toThrow('later term');
    expect(
      a.handleJoin({ source: 'c', target: 'a', term: 1, lastAcceptedTerm: 0, lastAcceptedVersion: 0 }),
    ).toBe(true);
    expect(a.isElectionWon).toBe(true);
  });

  it('counts no vote in a term not started since boot', () => {
    const a = new CoordinationState('a', { currentTerm: 4, lastAccepted: init });
    expect(() =>
      a.handleJoin({ source: 'b', target: 'a', term: 4, lastAcceptedTerm: 0, lastAcceptedVersion: 0 }),
    ).toThrow('booted');
  });

  it('publishes newer states of its term, commits on a quorum of both configurations, one reconfiguration at a time', () => {
    const a = new CoordinationState('a', { currentTerm: 0, lastAccepted: init });
    a.handleJoin(a.handleStartJoin('a', 1));
    a.handleJoin({ source: 'b', target: 'a', term: 1, lastAcceptedTerm: 0, lastAcceptedVersion: 0 });
    const s1 = state(init, 1, 1, ['a', 'b']);
    // A new configuration needs a quorum of this election's votes: {a, b} voted.
    a.handleClientValue(s1);
    expect(() => a.handleClientValue(state(init, 1, 1))).toThrow('not newer');
    a.handlePublishRequest(s1);
    expect(a.handlePublishResponse('a', 1, 1)).toBe(false);
    // b makes a quorum of {a,b,c} and of {a,b}.
    expect(a.handlePublishResponse('b', 1, 1)).toBe(true);
    const committed = a.handleCommit(1, 1);
    expect(committed.coordination.lastCommittedConfig).toEqual(['a', 'b']);
    expect(committed.clusterUuidCommitted).toBe(true);
    // A configuration without a quorum of the votes is refused.
    expect(() => a.handleClientValue(state(committed, 1, 2, ['c']))).toThrow('no quorum');
  });

  it('accepts a publication only of its current term and above what it accepted', () => {
    const b = new CoordinationState('b', { currentTerm: 0, lastAccepted: init });
    b.handleStartJoin('a', 2);
    expect(() => b.handlePublishRequest(state(init, 1, 5))).toThrow('not the current term');
    b.handlePublishRequest(state(init, 2, 5));
    expect(() => b.handlePublishRequest(state(init, 2, 5))).toThrow('not above');
    expect(() => b.handleCommit(2, 4)).toThrow('not accepted');
    expect(b.handleCommit(2, 5).version).toBe(5);
  });
});
