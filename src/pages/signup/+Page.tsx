// https://vike.dev/Page
import { SignupForm } from '../../components/SignupForm.tsx';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { brand, next, refused } = useData<Data>();
  return (
    <section className="container container--form form-page">
      <h1>Join {brand} free</h1>
      <p className="form-page__lead">
        Create an account to post ads and reply to members. Browsing stays free without one.
      </p>
      <div className="form-card" data-enhance="signup-form">
        <SignupForm
          idPrefix="signup"
          next={next}
          state={
            refused && {
              values: {
                email: refused.values.email ?? '',
                password: '',
                dateOfBirth: refused.values.dateOfBirth ?? '',
                state: refused.values.state ?? '',
                acceptTerms: false,
              },
              fieldErrors: refused.fieldErrors ?? {},
              banner: refused.error,
              submitting: false,
            }
          }
        />
      </div>
    </section>
  );
}
