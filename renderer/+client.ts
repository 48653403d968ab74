// https://vike.dev/client
import '../src/client/member-actions.ts';
