// https://vike.dev/route
import { routes } from '../../paths.ts';
import { vikeRoute } from '../../route.ts';

export default vikeRoute(routes.verification);
