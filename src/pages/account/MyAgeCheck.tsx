import { Banner } from '../../components/Banner.tsx';
import { StateSelect } from '../../components/StateSelect.tsx';
import { declaredStateApiPath, verifyAgePath } from '../../../core/paths.ts';
import { ageCheckForMember, type AgeAssuranceView } from '../../../core/views/age-assurance.ts';
import { AccountSection } from './AccountSection.tsx';

/**
 * On /account: the member's state (asked at sign-up, or their first ad's), to change, and their
 * age check (docs/product.md section 6, "Age assurance").
 */
export function MyAgeCheck({
  ageAssurance,
  notice,
}: {
  ageAssurance: AgeAssuranceView | undefined;
  notice: string | undefined;
}) {
  const check = ageAssurance?.check;
  const law = ageAssurance?.declaredStateLaw;
  return (
    <AccountSection name="my-state" title="Your state and age check">
      <form className="form" action={declaredStateApiPath()} method="post">
        {notice && <Banner tone="info">{notice}</Banner>}
        <input type="hidden" name="stateForm" value="1" />
        <StateSelect
          id="account-state"
          name="state"
          label="Your state"
          hint="Where you live. Where a state's law asks for it, members there check their age before posting or sending a first message."
          defaultValue={ageAssurance?.declaredState ?? ''}
        />
        <button className="button button--secondary" type="submit">
          Save my state
        </button>
      </form>
      <p>
        {check ? (
          ageCheckForMember(check)
        ) : law ? (
          <>
            {law.law} asks members in {law.state} to check their age before posting or sending a
            first message. <a href={verifyAgePath()}>Check my age</a>
          </>
        ) : (
          <>
            Your age is not checked. No check is needed unless you, or an ad you post or write
            about, are in a state whose law asks for one.{' '}
            <a href={verifyAgePath()}>About the age check</a>
          </>
        )}
      </p>
    </AccountSection>
  );
}
