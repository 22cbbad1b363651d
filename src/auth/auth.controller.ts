import { Body, Controller, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/auth/access.decorators';
import { ApiProblemResponses } from '../common/errors/api-problem-responses';
import { AuthService } from './auth.service';
import { LoginDto, LoginResponseDto } from './dto/login.dto';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('login')
  @HttpCode(200)
  @Public()
  @ApiOperation({ operationId: 'login', summary: 'Sign in with email and password' })
  @ApiOkResponse({ type: LoginResponseDto, description: 'Signed in.' })
  @ApiProblemResponses(400, 401, 413, 429)
  login(@Body() body: LoginDto, @Ip() clientAddress: string): Promise<LoginResponseDto> {
    return this.auth.login(body.email, body.password, clientAddress);
  }
}
