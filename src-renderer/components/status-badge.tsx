import type { StepStatus } from '../../src-main/contract/flows.ts'

const LABELS: Record<string, string> = {
  idle: 'Not run',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  skipped: 'Skipped',
  pass: 'Pass',
  fail: 'Fail',
  warning: 'Warning',
}

/** A step or check status as a coloured word (never colour alone). */
export function StatusBadge({ status, label }: { status: StepStatus | 'pass' | 'fail' | 'warning'; label?: string }) {
  return (
    <span className={`badge badge-${status}`} data-status={status}>
      {label ?? LABELS[status] ?? status}
    </span>
  )
}
