import { AccountSection } from './AccountSection.tsx';
import { accountDataApiPath, deleteAccountPath } from '../../../core/paths.ts';

/** On /account: the member's own data, a copy of it, and deleting the account. Plain links. */
export function MyData() {
  return (
    <AccountSection name="my-data" title="Your data">
      <div className="my-data__item">
        <div>
          <h3 className="my-data__title">Download my data</h3>
          <p className="my-data__text">
            One file (JSON) with your account, your ads and their photos, your conversations and
            their messages, the members you blocked, the reports you made, your saved searches, who
            may reach you and the devices you get notifications on.
          </p>
        </div>
        <a className="button button--secondary button--small" href={accountDataApiPath()}>
          Download my data
        </a>
      </div>
      <div className="my-data__item">
        <div>
          <h3 className="my-data__title">Delete my account</h3>
          <p className="my-data__text">
            Your account, ads and messages are deleted for good. We ask for your password first and
            say what stays.
          </p>
        </div>
        <a
          className="button button--ghost button--small my-data__delete"
          href={deleteAccountPath()}
        >
          Delete my account
        </a>
      </div>
    </AccountSection>
  );
}
