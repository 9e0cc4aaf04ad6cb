import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for secrets the service must read back (a vendor's OAuth tokens, a workspace's
 * client secret). Sealed text names its key: `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url),
 * so keys rotate by putting a new one first in the keyring and keeping the old ones to read.
 */
export class Keyring {
  private readonly keys: Map<string, Buffer>;
  private readonly currentId: string;

  /** `spec` is `id:base64key[,id:base64key…]`; the first key seals, every key opens. */
  constructor(spec: string) {
    const entries = spec.split(',').map((entry) => {
      const [id, encoded] = entry.trim().split(':');
      const key = Buffer.from(encoded ?? '', 'base64');
      if (!/^[A-Za-z0-9_-]+$/.test(id) || key.length !== 32) {
        throw new Error('each keyring entry is <id>:<32 bytes in base64>');
      }
      return [id, key] as const;
    });
    this.keys = new Map(entries);
    this.currentId = entries[0][0];
  }

  /** A keyring of one random key: all-in-one development, where nothing outlives the process. */
  static ephemeral(): Keyring {
    return new Keyring(`dev:${randomBytes(32).toString('base64')}`);
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentId)!, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', this.currentId, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, id, iv, tag, ciphertext] = sealed.split('.');
    const key = this.keys.get(id);
    if (version !== 'v1' || !key) throw new Error('sealed with an unknown key');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
