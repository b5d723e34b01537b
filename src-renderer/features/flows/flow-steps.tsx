import type { FlowState } from '../../../src-main/contract/flows.ts'
import { AwaitingPanel } from './awaiting-panel.tsx'
import { StepCard } from './step-card.tsx'

/** The steps of a flow as cards, with the PSU panel right after the step that waits for the PSU. */
export function FlowSteps({ flow, explain = true }: { flow: FlowState; explain?: boolean }) {
  return (
    <ol className="steps" aria-label={`Steps of the ${flow.kind.toUpperCase()} flow`}>
      {flow.steps.map((step, i) => (
        <li key={step.id}>
          <StepCard flowId={flow.id} step={step} index={i} explain={explain} />
          {flow.awaiting?.stepId === step.id ? <AwaitingPanel flow={flow} /> : null}
        </li>
      ))}
    </ol>
  )
}
