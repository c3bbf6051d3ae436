/**
 * How to trust a server reached over `https://` (and its live stream over `wss://`): a venue's own certificate
 * authority, a self-signed certificate, or a client certificate. Handed to Node's TLS as given.
 */
export interface TlsOptions {
  /** Certificate authorities to trust instead of the system's (PEM text), e.g. the venue's own CA. */
  ca?: string | Buffer | (string | Buffer)[];
  /** A client certificate and its key (PEM), for servers that ask for one. */
  cert?: string | Buffer;
  key?: string | Buffer;
  passphrase?: string;
  /** `false` accepts any certificate, self-signed included, without checking it: for a closed show network only. */
  rejectUnauthorized?: boolean;
  /** The name to check the certificate against, when it differs from the host's address. */
  servername?: string;
}
