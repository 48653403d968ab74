// https://vike.dev/route
export default '/about/@slug';
