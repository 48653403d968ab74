// /account's decisions about the member (docs/product.md section 6): each restriction's
// statement of reasons, newest first, with where its appeal stands and the link to appeal it.
import { AccountSection } from './AccountSection.tsx';
import { StatementOfReasons } from '../../components/StatementOfReasons.tsx';
import { decisionPagePath } from '../../../core/paths.ts';
import type { StatementView } from '../../../core/views/statement.ts';

export function MyDecisions({ statements }: { statements: readonly StatementView[] }) {
  if (statements.length === 0) return null;
  return (
    <AccountSection name="my-decisions" title="Moderation decisions">
      <p className="my-decisions__intro">
        Why our moderators, or our rules, restricted your ads, photos or account, and how to appeal.
      </p>
      <ul className="my-decisions__list">
        {statements.map((statement) => (
          <li className="form-card" key={statement.id}>
            <StatementOfReasons statement={statement} appealHref={decisionPagePath(statement.id)} />
          </li>
        ))}
      </ul>
    </AccountSection>
  );
}
