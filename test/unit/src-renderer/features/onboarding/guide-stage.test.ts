// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Stage, StageAction } from '../../../../../src-renderer/features/onboarding/guide-stage.tsx'
import { el, h } from '../../support/render.ts'

afterEach(cleanup)

describe('a step of the guide', () => {
  const step = (state: 'done' | 'current' | 'locked') =>
    el(Stage, {
      n: 2,
      title: 'Get a TPP identity',
      state,
      explanation: 'Onboards a TPP.',
      children: h('button', {}, 'Go'),
    })

  it('is a region named by its number and title, its controls shown once it is no longer locked', () => {
    render(step('current'))
    const region = screen.getByRole('region', { name: 'Step 2: Get a TPP identity' })
    expect(region.getAttribute('data-state')).toBe('current')
    expect(region.textContent).toContain('Onboards a TPP.')
    expect(screen.getByRole('button', { name: 'Go' })).toBeTruthy()
    cleanup()
    render(step('locked'))
    expect(screen.getByRole('region').textContent).toContain('Onboards a TPP.')
    expect(screen.queryByRole('button', { name: 'Go' })).toBeNull()
  })

  it('shows a tick instead of its number once done', () => {
    render(step('done'))
    expect(screen.getByRole('region').querySelector('.stage-n')?.textContent).toBe('✓')
  })

  it('has an action that runs once, and says what it is doing while busy', () => {
    const run = vi.fn(async () => {})
    render(el(StageAction, { label: 'Register a client', busyLabel: 'Registering…', busy: false, run }))
    fireEvent.click(screen.getByRole('button', { name: 'Register a client' }))
    expect(run).toHaveBeenCalledTimes(1)
    cleanup()
    render(el(StageAction, { label: 'Register a client', busyLabel: 'Registering…', busy: true, run }))
    expect((screen.getByRole('button', { name: 'Registering…' }) as HTMLButtonElement).disabled).toBe(true)
  })
})
