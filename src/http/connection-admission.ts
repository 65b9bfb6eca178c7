import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiMetrics } from '../telemetry/metrics';
import { peerOf } from './body-admission';

/** What {@link boundConnections} bounds. */
export interface ConnectionBoundOptions {
  /** Most open connections one client address (IPv4, or IPv6 /64) may hold (API_MAX_CONNECTIONS_PER_PEER); 0: no bound. */
  maxPerPeer: number;
  /** Most open connections in all (API_MAX_CONNECTIONS); 0: no bound. */
  maxConnections: number;
  /** Counts refusals into `http_requests_shed_total{reason="peer_connections"|"max_connections"}`. */
  metrics?: ApiMetrics | undefined;
}

/** The live counts of {@link boundConnections} (tests, diagnostics). */
export interface ConnectionBound {
  /** Connections open now from `peer` ({@link peerOf} of its address). */
  openFrom(peer: string): number;
}

/**
 * Bounds the server's open connections before any byte is read: beyond `maxConnections` the
 * kernel's socket is closed at once, and a client address holding `maxPerPeer` connections has
 * its next one destroyed at once, so one host that opens sockets and trickles headers cannot
 * exhaust the process's file descriptors or starve other clients of connections.
 */
export function boundConnections(server: Server, opts: ConnectionBoundOptions): ConnectionBound {
  const { maxPerPeer, maxConnections, metrics } = opts;
  const perPeer = new Map<string, number>();
  if (maxConnections > 0) {
    server.maxConnections = maxConnections;
    server.on('drop', () => metrics?.requestsShed.inc({ reason: 'max_connections' }));
  }
  if (maxPerPeer > 0) {
    server.on('connection', (socket: Socket) => {
      const peer = peerOf(socket.remoteAddress);
      const held = perPeer.get(peer) ?? 0;
      if (held >= maxPerPeer) {
        metrics?.requestsShed.inc({ reason: 'peer_connections' });
        socket.destroy();
        return;
      }
      perPeer.set(peer, held + 1);
      socket.once('close', () => {
        const left = (perPeer.get(peer) ?? 1) - 1;
        if (left > 0) perPeer.set(peer, left);
        else perPeer.delete(peer);
      });
    });
  }
  return { openFrom: (peer) => perPeer.get(peer) ?? 0 };
}
