import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from '../lib/safe-equal';

/** Token prefix: tells a portal session token from an API key (`whk_`) at a glance and in secret scanners. */
export const PORTAL_TOKEN_PREFIX = 'whps_';

/** What a portal session may do: `portalSession` scopes, plus `resources:read` to subscribe to `order.*` events. */
export type PortalGrant = 'webhooks:read' | 'webhooks:write' | 'alerts:read' | 'resources:read';

/** A verified portal session, as its token states it. */
export interface PortalSession {
  id: string;
  ownerId: string;
  /** The API key that opened it: the session lives only as long as the key, and never holds more than it. */
  keyId: string;
  /** What the token granted, narrowed to what its key holds now. */
  grants: PortalGrant[];
  /** An administrator session: alerts and Temporal UI links. */
  admin: boolean;
  issuedAt: Date;
  expiresAt: Date;
}

/** Why a token was refused; `message` is safe to show to the holder. */
export class PortalTokenError extends Error {
  constructor(
    readonly reason: 'malformed' | 'signature' | 'expired' | 'ended',
    message: string,
  ) {
    super(message);
  }
}

/** The signed claims, with short keys: the token travels in a URL. */
interface Claims {
  sid: string;
  own: string;
  /** The issuing API key's id. */
  key: string;
  g: PortalGrant[];
  adm: boolean;
  /** Issued at, in milliseconds: `expire-all` ends the sessions issued until then. */
  iat: number;
  exp: number;
}

/** The signing key, or how to load it (from the database, once, on first use). */
export type PortalKeySource = Buffer | (() => Promise<Buffer>);

/** The scopes an API key holds now, or undefined once it is revoked or gone. */
export type KeyScopes = (keyId: string) => Promise<readonly string[] | undefined>;

/** The grants of `session` that scopes `held` (its key's, now) still allow; `alerts:read` only while the key is an admin key. */
export function grantsAllowed(grants: readonly PortalGrant[], held: readonly string[]): PortalGrant[] {
  if (held.includes('admin')) return [...grants];
  return grants.filter((g) => g !== 'alerts:read' && held.includes(g));
}

/**
 * Issues and verifies portal session tokens: `whps_<claims>.<HMAC-SHA256>`, base64url. A session
 * ends when it expires, when its owner's sessions are ended, or when the API key that opened it
 * is revoked; it never holds more than that key does now. The reads behind the last two are cached
 * for a few seconds, so a portal request costs no database round trip in the common case.
 */
export class PortalSessions {
  private readonly now: () => Date;
  private readonly revokedBefore: ((ownerId: string) => Promise<Date | undefined>) | undefined;
  private readonly keyScopes: KeyScopes | undefined;
  private key: Promise<Buffer> | undefined;

  /**
   * @param source a key of at least 32 bytes shared by every API process
   * @param options `revokedBefore`: the owner's `expire-all` cut-off; `keyScopes`: the issuing key's
   *   scopes now (absent: sessions are not checked against their key); `now` is injectable for tests
   */
  constructor(
    private readonly source: PortalKeySource,
    options: { now?: () => Date; revokedBefore?: (ownerId: string) => Promise<Date | undefined>; keyScopes?: KeyScopes } = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.revokedBefore = options.revokedBefore;
    this.keyScopes = options.keyScopes;
  }

  /** A new session for `ownerId`, opened by API key `keyId`, lasting `expiresInSeconds`, and its token. */
  async issue(input: { ownerId: string; keyId: string; grants: PortalGrant[]; admin: boolean; expiresInSeconds: number }): Promise<{ session: PortalSession; token: string }> {
    const issuedAt = this.now().getTime();
    const expiresAt = new Date(Math.floor(issuedAt / 1000 + input.expiresInSeconds) * 1000);
    const claims: Claims = {
      sid: `ps_${randomBytes(12).toString('hex')}`,
      own: input.ownerId,
      key: input.keyId,
      g: [...input.grants],
      adm: input.admin,
      iat: issuedAt,
      exp: expiresAt.getTime() / 1000,
    };
    const body = PORTAL_TOKEN_PREFIX + Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { session: toSession(claims), token: `${body}.${await this.sign(body)}` };
  }

  /** The session a token carries; rejects with PortalTokenError when it is malformed, altered or expired. */
  async verify(token: string): Promise<PortalSession> {
    const dot = token.lastIndexOf('.');
    if (!token.startsWith(PORTAL_TOKEN_PREFIX) || dot < 0) throw new PortalTokenError('malformed', 'portal session token is malformed');
    const body = token.slice(0, dot);
    // The encoded text is compared, not the decoded bytes: base64url decoding forgives stray characters.
    if (!safeEqual(token.slice(dot + 1), await this.sign(body))) {
      throw new PortalTokenError('signature', 'portal session token is not valid');
    }
    const claims = parseClaims(body.slice(PORTAL_TOKEN_PREFIX.length));
    if (!claims) throw new PortalTokenError('malformed', 'portal session token is malformed');
    const session = toSession(claims);
    if (session.expiresAt <= this.now()) {
      throw new PortalTokenError('expired', `portal session expired at ${session.expiresAt.toISOString()}; ask for a new link`);
    }
    const cutOff = await this.revokedBefore?.(session.ownerId);
    if (cutOff && session.issuedAt <= cutOff) {
      throw new PortalTokenError('ended', `portal session was ended at ${cutOff.toISOString()} (all sessions of its owner were); ask for a new link`);
    }
    return this.keyScopes ? this.boundToKey(session, this.keyScopes) : session;
  }

  /** The session as its key allows it now: ended with a revoked key, narrowed to the key's current scopes. */
  private async boundToKey(session: PortalSession, keyScopes: KeyScopes): Promise<PortalSession> {
    const held = await keyScopes(session.keyId);
    if (!held) throw new PortalTokenError('ended', 'the API key that opened this portal session was revoked; ask for a new link');
    return { ...session, grants: grantsAllowed(session.grants, held), admin: session.admin && held.includes('admin') };
  }

  private keyBytes(): Promise<Buffer> {
    const source = this.source;
    this.key ??= (Buffer.isBuffer(source) ? Promise.resolve(source) : source()).then((k) => {
      if (k.length < 32) throw new Error('portal session key must be at least 32 bytes');
      return k;
    });
    // A failed load (database away) is retried by the next request, not remembered.
    this.key.catch(() => (this.key = undefined));
    return this.key;
  }

  private async sign(body: string): Promise<string> {
    return createHmac('sha256', await this.keyBytes()).update(body).digest('base64url');
  }
}

function toSession(c: Claims): PortalSession {
  return { id: c.sid, ownerId: c.own, keyId: c.key, grants: [...c.g], admin: c.adm, issuedAt: new Date(c.iat), expiresAt: new Date(c.exp * 1000) };
}

/** Signed claims are trusted, but still checked for shape so a key change never yields a half session. */
function parseClaims(encoded: string): Claims | undefined {
  try {
    const c = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Partial<Claims>;
    const ok =
      typeof c.sid === 'string' &&
      typeof c.own === 'string' &&
      typeof c.key === 'string' &&
      typeof c.adm === 'boolean' &&
      typeof c.iat === 'number' &&
      typeof c.exp === 'number' &&
      Array.isArray(c.g);
    return ok ? (c as Claims) : undefined;
  } catch {
    return undefined;
  }
}
