/** The sandbox's stand-in for the Open Banking ecosystem's certificates (the spec's TPP prerequisites 1.5). */
export interface EcosystemPki {
  rootCaPem: string
  issuingCaPem: string
  /** Root then issuing CA, PEM: what a TPP trusts and what the servers accept client certificates from. */
  caBundlePem: string
  /** Path of the CA bundle in the data directory. */
  caBundlePath: string
  /** TLS identity of the sandbox's servers (SANs 127.0.0.1, ::1 and localhost), issued by the issuing CA. */
  serverTls: { keyPem: string; certPem: string }
  /**
   * Issues a TPP transport certificate, Open Banking style: subject `CN=<softwareId>, OU=<orgId>,
   * O=<orgName>, C=GB`, clientAuth EKU, issued by the issuing CA. The key is generated here and returned
   * once as PKCS#8 PEM; the sandbox keeps no copy.
   */
  issueTransportCertificate(input: {
    orgId: string
    orgName: string
    softwareId: string
    validDays?: number
  }): Promise<{ certPem: string; keyPem: string }>
}
