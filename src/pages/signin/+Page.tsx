// https://vike.dev/Page
import { SigninForm } from '../../components/SigninForm.tsx';
import { useData } from '../../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { brand } = useData<Data>();
  return (
    <section className="container container--form form-page">
      <h1>Sign in to {brand}</h1>
      <div className="form-card" data-enhance="signin-form">
        <SigninForm />
      </div>
    </section>
  );
}
