// https://vike.dev/route
export default '/signup';
