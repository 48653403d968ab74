// https://vike.dev/client
// The only script every page loads (a few hundred bytes): it wires member actions to the sign-up
// dialog and shows the signed-in member in the header. React and the dialog load on demand.
import '../client/main.ts';
