import type { Config } from '#server/config.ts'
import { createAliyunSms } from './aliyun.ts'
import { createConsoleSms } from './console.ts'
import type { SmsProvider } from './sms.ts'
import { createTencentSms } from './tencent.ts'

/** The provider the configuration names (SMS_PROVIDER). */
export function createSmsProvider(config: Config): SmsProvider {
  const { sms } = config
  switch (sms.provider) {
    case 'aliyun':
      return createAliyunSms({ ...sms.aliyun, signName: sms.signName, templateCode: sms.templateCode })
    case 'tencent':
      return createTencentSms({ ...sms.tencent, signName: sms.signName, templateId: sms.templateCode })
    case 'console':
      return createConsoleSms({ print: config.env === 'demo' || config.env === 'development' })
  }
}
