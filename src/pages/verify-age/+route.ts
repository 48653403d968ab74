// https://vike.dev/route
import { routes } from '../../../core/paths.ts';
import { vikeRoute } from '../../../core/route.ts';

export default vikeRoute(routes.verifyAge);
