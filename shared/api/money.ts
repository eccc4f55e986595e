import { z } from 'zod'

/** An amount of money in an answer: integer fen (1/100 CNY), as money is everywhere (shared/money.ts). */
export const Fen = z.number().int().describe('integer fen')
