import { afterAll, describe, expect, it } from 'vitest'
import { adminClient, createUser, serviceAvailable } from './stack.ts'
import { openSuite } from './suite.ts'

const { stack, drivers } = await openSuite()
afterAll(() => stack.stop())

const profileOf = async (id: string) =>
  (await stack.db.pg.query('select * from public.profiles where id = $1', [id])).rows[0] as
    Record<string, unknown> | undefined

const authReady = await serviceAvailable(stack, '/auth/v1/settings')

describe('profile trigger on auth.users', () => {
  it('names the profile from the sign-up or OAuth metadata, or the email’s local part', async () => {
    const named = await createUser(stack, 'named', { display_name: '  Ada Lovelace ' })
    const plain = await createUser(stack, 'Plain.Person')
    const oauth = await createUser(stack, 'oauth', { full_name: 'Grace Hopper' })
    expect(await profileOf(oauth.id)).toMatchObject({ display_name: 'Grace Hopper' })
    expect(await profileOf(named.id)).toMatchObject({
      display_name: 'Ada Lovelace',
      email: named.email,
    })
    const profile = await profileOf(plain.id)
    expect(profile).toMatchObject({
      display_name: plain.email.split('@')[0],
      email: plain.email.toLowerCase(),
    })
    expect(profile!.avatar_color).toMatch(/^#[0-9a-f]{6}$/)
  })

  it('gives everyone a colour from the palette, the same for the same id', async () => {
    const { rows } = await stack.db.pg.query<{ same: boolean; colours: number }>(
      `select bool_and(avatar_color = public.avatar_color_for(id)) as same,
              count(distinct avatar_color)::int as colours
       from public.profiles`,
    )
    expect(rows[0]!.same).toBe(true)
    // Enough users exist by now that one colour for all would be a broken hash.
    expect(rows[0]!.colours).toBeGreaterThan(1)
  })

  it('follows email changes and disappears with the account', async () => {
    const user = await createUser(stack, 'mover')
    await stack.db.pg.query(
      `update auth.users set email = 'New.Address@Example.test' where id = $1`,
      [user.id],
    )
    expect(await profileOf(user.id)).toMatchObject({ email: 'new.address@example.test' })
    await stack.db.pg.query('delete from auth.users where id = $1', [user.id])
    expect(await profileOf(user.id)).toBeUndefined()
  })

  it.skipIf(!authReady)('is created for a user made through supabase-js auth', async () => {
    const email = `signed.up.${Date.now()}@example.test`
    const { data, error } = await adminClient(stack).auth.admin.createUser({
      email,
      password: 'correct horse battery',
      email_confirm: true,
      user_metadata: { display_name: 'Grace' },
    })
    expect(error).toBeNull()
    expect(await profileOf(data.user!.id)).toMatchObject({ display_name: 'Grace', email })
  })
})

describe.each(drivers)('profiles through $name', (driver) => {
  it('lets a user rename themselves but not change their email or colour freely', async () => {
    const user = await createUser(stack, 'renamer')
    const rename = await driver.call(stack, user, {
      table: 'profiles',
      op: 'update',
      match: { id: user.id },
      values: { display_name: 'Renamed', avatar_color: '#123abc' },
      returning: true,
    })
    expect(rename.error).toBeNull()
    expect(rename.rows).toMatchObject([{ display_name: 'Renamed', avatar_color: '#123abc' }])

    const badColour = await driver.call(stack, user, {
      table: 'profiles',
      op: 'update',
      match: { id: user.id },
      values: { avatar_color: 'red' },
    })
    expect(badColour.error?.code).toBe('23514')

    const email = await driver.call(stack, user, {
      table: 'profiles',
      op: 'update',
      match: { id: user.id },
      values: { email: 'spoof@example.test' },
    })
    expect(email.error?.code).toBe('42501')
    expect(await profileOf(user.id)).toMatchObject({ email: user.email })
  })
})
