// https://vike.dev/route
export default '/state/@stateName';
