import { describe, expect, it } from 'vitest'
import { DEFAULT_HOME_NAME, nodePaths, resolveHome } from '../../../src/home/home-paths.js'

describe('resolveHome', () => {
  const cwd = '/code/project'
  const user = '/home/ada'

  it('is ~/.isnad when neither --home nor $ISNAD_HOME names one, never the current directory', () => {
    expect(DEFAULT_HOME_NAME).toBe('.isnad')
    expect(resolveHome(undefined, {}, cwd, user)).toBe('/home/ada/.isnad')
    expect(resolveHome(undefined, { ISNAD_HOME: '' }, cwd, user)).toBe('/home/ada/.isnad')
  })

  it('takes --home over $ISNAD_HOME, and a relative one from the current directory', () => {
    expect(resolveHome('alice', { ISNAD_HOME: '/srv/bob' }, cwd, user)).toBe('/code/project/alice')
    expect(resolveHome('.', {}, cwd, user)).toBe('/code/project')
    expect(resolveHome(undefined, { ISNAD_HOME: '/srv/bob' }, cwd, user)).toBe('/srv/bob')
    expect(resolveHome(undefined, { ISNAD_HOME: 'bob' }, cwd, user)).toBe('/code/project/bob')
  })

  it('puts .memory/ and keys/ inside the home', () => {
    expect(nodePaths('/home/ada/.isnad')).toMatchObject({ data: '/home/ada/.isnad/.memory', keys: '/home/ada/.isnad/keys', index: '/home/ada/.isnad/.memory/index' })
  })
})
