import fs from 'node:fs'

// TEST ONLY (see README.md in this folder): keys of the local payment simulators, never of a real merchant.

const read = (name: string) => fs.readFileSync(new URL(`./${name}`, import.meta.url), 'utf8')

export const TestWechatPay = {
  mchid: '1900000109',
  merchantSerial: '3775B6A45ACD588826D15E583A95F5DD2C4A5E31',
  merchantPrivateKey: read('wechatpay-merchant-private.pem'),
  merchantPublicKey: read('wechatpay-merchant-public.pem'),
  /** The merchant API certificate (apiclient_cert.pem): SDKs read the merchant serial from it. */
  merchantCertificate: read('wechatpay-merchant-cert.pem'),
  platformSerial: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
  platformPrivateKey: read('wechatpay-platform-private.pem'),
  platformCertificate: read('wechatpay-platform-cert.pem'),
  /** A second platform certificate: the simulator rotates to it in the certificate download tests. */
  platform2Serial: '6B2E4F1A9C3D5E7F80A1B2C3D4E5F60718293A4B',
  platform2PrivateKey: read('wechatpay-platform2-private.pem'),
  platform2Certificate: read('wechatpay-platform2-cert.pem'),
  publicKeyId: 'PUB_KEY_ID_0119000001092026112200000000000001',
  publicKeyPrivate: read('wechatpay-pubkey-private.pem'),
  publicKey: read('wechatpay-pubkey-public.pem'),
  apiV3Key: 'ZixueTestApiV3Key0123456789abcde',
} as const

export const TestAlipay = {
  appId: '2021000199999999',
  sellerId: '2088000000000001',
  appPrivateKey: read('alipay-app-private.pem'),
  appPublicKey: read('alipay-app-public.pem'),
  gatewayPrivateKey: read('alipay-gateway-private.pem'),
  gatewayPublicKey: read('alipay-gateway-public.pem'),
} as const
