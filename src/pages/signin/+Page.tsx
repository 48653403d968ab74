// https://vike.dev/Page
import { SigninForm } from '../../components/SigninForm.tsx';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { brand, next, refused } = useData<Data>();
  return (
    <section className="container container--form form-page">
      <h1>Sign in to {brand}</h1>
      <div className="form-card" data-enhance="signin-form">
        <SigninForm
          next={next}
          state={
            refused && {
              values: { email: refused.values.email ?? '', password: '' },
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
