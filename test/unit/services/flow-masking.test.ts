import { describe, expect, it } from 'vitest'
import type { StepState } from '../../../src-main/contract/flows.ts'
import { SecretCollector } from '../../../src-main/core/secret-collector.ts'
import { maskFlow, maskStep } from '../../../src-main/services/flow-masking.ts'

const ACCESS_TOKEN = `eyJhbGciOiJQUzI1NiJ9.${'a'.repeat(40)}.${'s'.repeat(43)}`

const step = (output: unknown, id = 'code-exchange'): StepState => ({
  id,
  title: 'Code exchange',
  explanation: 'Exchanges the code for tokens.',
  status: 'done',
  exchangeIds: [],
  checks: [],
  output,
})

describe('a step as it leaves the main side', () => {
  it('masks a finished output once: every later pass gets the same masked value and lists the same secrets', () => {
    const output = { accessToken: ACCESS_TOKEN, expiresIn: 300 }
    const first = maskStep(step(output))
    const again = maskStep(step(output))
    expect(JSON.stringify(first)).not.toContain(ACCESS_TOKEN)
    expect(again.output).toBe(first.output)
    expect(again.secrets).toEqual(first.secrets)
    expect(first.secrets).toHaveLength(1)
    // A new output (a refreshed token set) is masked afresh.
    const refreshed = maskStep(step({ accessToken: `${ACCESS_TOKEN}x`, expiresIn: 300 }))
    expect(refreshed.output).not.toBe(first.output)
    expect(refreshed.secrets![0]!.ref).not.toBe(first.secrets![0]!.ref)
  })

  it('still tells each collector the secrets of an output masked before, so a reveal finds the value', () => {
    const output = { accessToken: ACCESS_TOKEN }
    const shown = maskFlow({
      id: 'f',
      kind: 'ais',
      environmentId: 'e',
      createdAt: '2026-11-29T00:00:00.000Z',
      steps: [step(output), step(output, 'later')],
    })
    const ref = shown.steps[0]!.secrets![0]!.ref
    const collector = new SecretCollector()
    maskStep(step(output), collector)
    expect(collector.find(ref)?.value).toBe(ACCESS_TOKEN)
  })

  it('masks by what the user revealed when a pass carries revealed values, never from what was kept', () => {
    const output = { accessToken: ACCESS_TOKEN }
    maskStep(step(output))
    const revealed = maskStep(step(output), new SecretCollector(new Set([ACCESS_TOKEN])))
    expect(JSON.stringify(revealed.output)).toContain(ACCESS_TOKEN)
    expect(JSON.stringify(maskStep(step(output)).output)).not.toContain(ACCESS_TOKEN)
  })
})
