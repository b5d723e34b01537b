import { describe, expect, it } from 'vitest'
import { editJsonBody, paginationEdits, removeAt, setAt } from '../../../../src-main/local-sandbox/faults/body-edit.ts'

const page = () => ({
  Data: { Transaction: [{ TransactionId: 't1' }, { TransactionId: 't2' }] },
  Links: { Self: 'https://127.0.0.1:9/tx?page=1', Next: 'https://127.0.0.1:9/tx?page=2' },
  Meta: { TotalPages: 2 },
})

describe('JSON pointer edits', () => {
  it('sets, creating objects, and removes', () => {
    expect(setAt(page(), '/Data', null)).toMatchObject({ Data: null })
    expect(setAt({}, '/a/b~1c', 1)).toEqual({ a: { 'b/c': 1 } })
    expect(setAt(page(), '/Data/Transaction/0/TransactionId', 5)).toMatchObject({
      Data: { Transaction: [{ TransactionId: 5 }, { TransactionId: 't2' }] },
    })
    expect(removeAt(page(), '/Links/Next')).toMatchObject({ Links: { Self: 'https://127.0.0.1:9/tx?page=1' } })
    expect((removeAt(page(), '/Data/Transaction/0') as ReturnType<typeof page>).Data.Transaction).toEqual([
      { TransactionId: 't2' },
    ])
    expect(removeAt(page(), '/No/Such')).toEqual(page())
  })

  it('leaves a body that is not JSON alone', () => {
    expect(editJsonBody(Buffer.from('<html>'), { kind: 'mutate', set: { '/a': 1 } })).toBeUndefined()
    expect(
      JSON.parse(editJsonBody(Buffer.from(JSON.stringify(page())), { kind: 'mutate', remove: ['/Meta'] })!.toString()),
    ).not.toHaveProperty('Meta')
  })
})

describe('pagination shorthands', () => {
  it('builds the usual broken paginations', () => {
    expect(paginationEdits('loop', page())).toEqual({ set: { '/Links/Next': 'https://127.0.0.1:9/tx?page=1' } })
    expect(paginationEdits('off-host', page())).toEqual({ set: { '/Links/Next': 'https://evil.example/tx?page=2' } })
    expect(paginationEdits('http', page())).toEqual({ set: { '/Links/Next': 'http://127.0.0.1:9/tx?page=2' } })
    expect(paginationEdits('missing-next', page())).toEqual({ remove: ['/Links/Next'] })
    expect(paginationEdits('wrong-total', page())).toEqual({ set: { '/Meta/TotalPages': 5 } })
  })
})
