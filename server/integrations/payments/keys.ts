import crypto from 'node:crypto'
import fs from 'node:fs'

/**
 * Reads key material from configuration: a PEM, a path to a PEM file, or the bare base64 body Alipay's console
 * shows (PKCS#8 private, SPKI public). Throws a plain Error saying what is wrong (config.ts names the variable).
 */
function readKeyText(value: string): string {
  const trimmed = value.trim().replaceAll('\\n', '\n')
  if (trimmed.startsWith('-----BEGIN')) return trimmed
  if (!/\s/.test(trimmed) && trimmed.length < 4096 && fs.existsSync(trimmed)) return fs.readFileSync(trimmed, 'utf8')
  if (/^[A-Za-z0-9+/=\s]{200,}$/.test(trimmed)) return trimmed
  throw new Error('is neither a PEM, a readable file, nor a base64 key')
}

function wrap(base64: string, label: string) {
  const body = base64
    .replace(/\s+/g, '')
    .match(/.{1,64}/g)!
    .join('\n')
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`
}

export function loadPrivateKey(value: string): crypto.KeyObject {
  const text = readKeyText(value)
  return crypto.createPrivateKey(text.startsWith('-----BEGIN') ? text : wrap(text, 'PRIVATE KEY'))
}

/** A public key from a public-key PEM, a certificate PEM or bare base64 SPKI. */
export function loadPublicKey(value: string): crypto.KeyObject {
  const text = readKeyText(value)
  if (text.includes('BEGIN CERTIFICATE')) return new crypto.X509Certificate(text).publicKey
  return crypto.createPublicKey(text.startsWith('-----BEGIN') ? text : wrap(text, 'PUBLIC KEY'))
}

/** A platform certificate: its serial (upper-case hex, as Wechatpay-Serial sends it) and public key. */
export function loadCertificate(value: string) {
  const cert = new crypto.X509Certificate(readKeyText(value))
  return { serial: cert.serialNumber.toUpperCase(), publicKey: cert.publicKey, validTo: new Date(cert.validTo) }
}
