/**
 * The part of npm oidc-provider's API that tests/support/oidcProvider.ts uses (the package ships no
 * types and @types/oidc-provider is not installed).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Interaction {
    uid: string;
    params: Record<string, unknown>;
    prompt: { name: string };
    session?: { accountId?: string };
  }

  interface Account {
    accountId: string;
    claims: () => Promise<Record<string, unknown>>;
  }

  interface Configuration {
    clients: Record<string, unknown>[];
    claims?: Record<string, string[]>;
    findAccount: (ctx: unknown, sub: string) => Promise<Account | undefined>;
    interactions?: { url: (ctx: unknown, interaction: { uid: string }) => string };
    features?: Record<string, { enabled: boolean }>;
    cookies?: { keys: string[] };
    ttl?: Record<string, number>;
  }

  class Grant {
    constructor(init: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    Grant: typeof Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
