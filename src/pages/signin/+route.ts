// https://vike.dev/route
export default '/signin';
