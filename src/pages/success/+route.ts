// https://vike.dev/route
export default '/success';
